/** The team schema's migrations from 21 on, each kept with the feature it serves (`migrations.ts` runs them all). */
import { BEHIND_COPIES_MIGRATIONS } from './behind-copies.js';
import { CALL_COPIES_MIGRATIONS } from './call-copies.js';
import { DEVICE_SEEN_MIGRATIONS } from './device-seen.js';
import { FAILED_REQUESTS_MIGRATIONS } from './failed-requests.js';
import { FORGOTTEN_MIGRATIONS } from './forgotten.js';
import { VALUE_MIGRATIONS } from './migrations-values.js';
import { RESPONSE_COPIES_MIGRATIONS } from './response-copies.js';
import { TOOL_FILTER_MIGRATIONS } from './tool-filter.js';

export const LATER_MIGRATIONS = [
  ...FORGOTTEN_MIGRATIONS,
  ...CALL_COPIES_MIGRATIONS,
  ...BEHIND_COPIES_MIGRATIONS,
  ...VALUE_MIGRATIONS,
  ...RESPONSE_COPIES_MIGRATIONS,
  ...DEVICE_SEEN_MIGRATIONS,
  ...FAILED_REQUESTS_MIGRATIONS,
  ...TOOL_FILTER_MIGRATIONS,
];
