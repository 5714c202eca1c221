import type { DataKind } from '../../model/typed-result.js';

/** Aider's only "tool" as AgentDash reads it: a SEARCH/REPLACE block of an answer, named `edit`. */
export function canonicalAiderToolName(name: string): string {
  return name;
}

export function kindOfAiderTool(name: string): DataKind | undefined {
  return name === 'edit' ? 'edit' : undefined;
}
