/**
 * A session's subagents as a tier may tell them: the metadata tier names each by the one-line summary of the call that
 * started it (`description`, as that tier's calls carry it), never by its prompt; the full tier adds the prompt. The
 * laptop builds them so (build.ts), and the team server reads an older laptop's subagents so (`fromOlderPayload`).
 */
import type { SubagentHeader } from '@agentdash/index';
import type { FullSubagentWire, ShareTier, SubagentWire } from './contract.js';

/** What a subagent is told from: the index's summary of it (an older payload's subagent, once checked, is one). */
export type SubagentSource = SubagentHeader;

/**
 * The subagent at `tier` (metadata or full). `summaryOf` gives a call's one-line summary as the payload carries it;
 * `text` makes a text fit to leave (redacted and clipped to the contract's most).
 */
export function subagentWire(
  sub: SubagentSource,
  tier: Exclude<ShareTier, 'summary'>,
  summaryOf: (callId: string) => string | null | undefined,
  text: (value: string, max: number) => string,
): SubagentWire | FullSubagentWire {
  const maybe = (value: string | null, max: number) => (value === null ? null : text(value, max));
  const told: SubagentWire = {
    key: sub.key,
    agentId: sub.agentId,
    parentCallId: sub.parentCallId,
    linkedBy: sub.linkedBy,
    description: sub.parentCallId === null ? null : maybe(summaryOf(sub.parentCallId) ?? null, 2000),
    agentType: maybe(sub.agentType, 300),
    startedAt: sub.startedAt,
    endedAt: sub.endedAt,
    events: sub.events,
    toolCalls: sub.toolCalls,
    errors: sub.errors,
    expectedErrors: sub.expectedErrors,
  };
  return tier === 'full' ? { ...told, prompt: maybe(sub.prompt, 20_000) } : told;
}
