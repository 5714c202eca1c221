/**
 * Model colours, in the order of the metric shown (`modelsInOrder`): the first models each have their own, and every model past them shares one
 * grey. A palette cycled past its end gave two models of one chart the same colour, read as one; the grey says
 * "the rest" instead, and the legend counts them.
 */
const DISTINCT = ['#8b9bff', '#f2b45a', '#4fc1a6', '#ff6b7a', '#c792ea', '#7fd1f7', '#a8d86a'] as const;
export const OTHER_MODELS_COLOR = '#7c8596';
/** How many models have a colour of their own. */
export const DISTINCT_MODELS = DISTINCT.length;

/** The colour of the model at `index` in that order. */
export const modelColor = (index: number): string => DISTINCT[index] ?? OTHER_MODELS_COLOR;
