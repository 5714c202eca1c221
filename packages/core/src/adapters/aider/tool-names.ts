import type { DataKind } from '../../model/typed-result.js';

/** Aider's "tools" as AgentDash reads them: a SEARCH/REPLACE block of an answer (`edit`), a whole file (`write`). */
export function canonicalAiderToolName(name: string): string {
  return name;
}

export function kindOfAiderTool(name: string): DataKind | undefined {
  return name === 'edit' ? 'edit' : name === 'write' ? 'write' : undefined;
}
