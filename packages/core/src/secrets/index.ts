/**
 * Secrets in transcripts: the documented rule set (docs/secrets.md), finding and redaction. Browser-safe.
 * @module
 */

export { redactSession } from './redact-session.js';
export { type SecretRule, secretRuleIds, secretRules } from './rules.js';
export {
  findSecrets,
  RedactionReport,
  redactionMarker,
  redactText,
  redactValue,
  type SecretMatch,
} from './scan.js';
