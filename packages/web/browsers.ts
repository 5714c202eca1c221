/**
 * The browsers the dashboard and the HTML export are built for (Vite's `build.target` and `build.cssTarget`): those
 * that read CSS `light-dark()` (2024), which the theme's colours are written in. For older targets Lightning CSS
 * rewrites it into variables resolved where a colour is declared, not where it is used, and the terminal's block,
 * dark in both themes, would take the light theme's colours.
 */
export const BROWSERS = ['chrome123', 'edge123', 'firefox120', 'safari17.5'];
