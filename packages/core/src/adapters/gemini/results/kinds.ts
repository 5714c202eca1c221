/** The shared result kinds and their schemas, in one import for the Gemini typers. */
export {
  type DataKind,
  type ResultData,
  resultDataSchemas,
  type TypedResult,
} from '../../../model/typed-result.js';
