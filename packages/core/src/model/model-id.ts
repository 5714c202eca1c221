/**
 * A Claude model's id as Anthropic writes it, from one written with a dot in its version as GitHub Copilot names
 * models (`claude-sonnet-4.6` is `claude-sonnet-4-6`); every other id as it is. Adapters whose client writes the dot
 * give their records Anthropic's id, so the one model is one row beside other agents' sessions, one option in the
 * sessions' model filter, and one price.
 * @example claudeModelId('claude-opus-4.5') // 'claude-opus-4-5'
 */
export function claudeModelId(model: string): string {
  return model.replace(/^(claude-(?:opus|sonnet|haiku)-\d+)\.(\d+)/, '$1-$2');
}

/**
 * A model filter's text (a part of an id) as the ids it should find are written, in lower case (the stores compare
 * it with the ids in lower case: `Sonnet` finds `claude-sonnet-4-6`, as a project filter ignores case): a Claude
 * version with a dot, as GitHub Copilot names models, is Anthropic's dash wherever it is in the text (`sonnet-4.6`
 * finds `claude-sonnet-4-6`).
 * @example claudeModelQuery('Sonnet-4.6') // 'sonnet-4-6'
 */
export function claudeModelQuery(text: string): string {
  return text.toLowerCase().replace(/((?:opus|sonnet|haiku)-\d+)\.(\d+)/, '$1-$2');
}
