/**
 * Secrets in transcripts: the documented rule set (docs/secrets.md), finding and redaction. Browser-safe.
 * @module
 */

export { RawLines, redactLine } from './raw-lines.js';
export { identifierSecretsOf, redactIdentifiers, redactIdentifiersKnowing } from './redact-identifiers.js';
export { redactDerived, redactSession, SessionRedactor } from './redact-session.js';
export { secretRules } from './rules.js';
export { findSecrets, mayHold, type RedactionReport, secretRulesOf } from './scan.js';
