import type { ResultContent } from '../../../model/content.js';

/**
 * Typed tool results, keyed by `kind`. Placeholder union: per-tool kinds are added in `results/`.
 */
export type TypedResult =
  | { readonly kind: 'error'; readonly tool: string; readonly message: string }
  | {
      readonly kind: 'unknown';
      readonly tool: string;
      readonly content: ResultContent;
      readonly toolUseResult: unknown;
    };

export type TypedResultKind = TypedResult['kind'];
