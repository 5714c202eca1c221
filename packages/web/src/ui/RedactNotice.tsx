import { useServerFacts } from '../data/server-facts';

/**
 * `agentdash serve --redact` (screen sharing): the server redacts every secret it sends, and the top bar says so, so
 * the person sharing knows what the others see.
 */
export function RedactNotice() {
  if (useServerFacts()?.redact !== true) return null;
  return (
    <span
      className="badge accent redact-notice"
      data-testid="redact-notice"
      title="Started with --redact: secrets in prompts, replies, tool inputs and outputs are shown as [REDACTED:…], and exports are redacted"
    >
      <span className="redact-notice-long">secrets </span>redacted
    </span>
  );
}
