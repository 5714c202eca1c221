import { resolve } from 'node:path';
import type { AgentId } from '@agentdash/core';
import { isUnder } from '@agentdash/core/base';

export type { AgentIndex } from '@agentdash/index';

/** Filters the server passes to the index. */
export interface IndexFilter {
  /** Only this agent's sessions (an `AgentId`). */
  readonly agent?: AgentId;
  readonly paths?: readonly string[];
  readonly project?: string;
  readonly since?: string;
  readonly until?: string;
  readonly model?: string;
  readonly version?: string;
  readonly hasErrors?: boolean;
  readonly hideEmpty?: boolean;
  readonly ids?: readonly string[];
  /** Only the sessions whose file tools touched this file (the index's `SessionFilter.file`). */
  readonly file?: string;
  readonly limit?: number;
  /** A team server's: only this person's sessions, or this device's (`PERSON/DEVICE` or a device name). */
  readonly person?: string;
  readonly device?: string;
}

/** Whether a file lies under one of the served source paths (a session outside them is never served). */
export function isUnderAny(file: string, roots: readonly string[]): boolean {
  const f = resolve(file);
  return roots.some((root) => isUnder(f, resolve(root)));
}
