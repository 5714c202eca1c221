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
