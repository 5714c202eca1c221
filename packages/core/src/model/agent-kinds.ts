import { z } from './zod.js';

/*
 * Result kinds of tools that only agents other than Claude Code have: Codex CLI's goals and waits for subagents, Gemini CLI's memory,
 * topics, background processes and a subagent's completion. Their data schemas and descriptions, spread into
 * `typed-result.ts`'s (kept apart so that file stays readable). Browser-safe, as typed-result.ts is.
 */

const num = z.number();
const str = z.string();
const opt = <T extends z.ZodType>(schema: T) => schema.optional();

export const agentKindSchemas = {
  goal: z.object({
    objective: opt(str),
    status: opt(str),
    tokensUsed: opt(num),
    tokenBudget: opt(num),
    timeUsedSeconds: opt(num),
    /** What the client told the model to report once the goal is complete. */
    report: opt(str),
  }),
  memory: z.object({ fact: str, saved: z.boolean(), message: opt(str) }),
  topic: z.object({ title: str, summary: opt(str), strategicIntent: opt(str) }),
  'process-list': z.object({
    processes: z.array(z.object({ pid: opt(num), status: str, command: str })),
  }),
  'task-complete': z.object({ result: str, message: opt(str) }),
  'agent-wait': z.object({
    /** The agents waited for, by thread id, each with its state and, once it ended, its last message. */
    agents: z.array(z.object({ agentId: str, status: str, text: opt(str) })),
    timedOut: opt(z.boolean()),
    /** The client's own words, when it wrote no state per agent ("Wait timed out."). */
    message: opt(str),
  }),
} as const;

export const agentKindDescriptions: Readonly<Record<keyof typeof agentKindSchemas, string>> = {
  goal: 'The thread’s goal created, read or updated: objective, status, tokens and time used (Codex create_goal, get_goal, update_goal).',
  memory: 'A fact saved to the agent’s long-term memory (Gemini save_memory; Qwen save_memory).',
  topic: 'The conversation’s current topic set: title, summary and intent (Gemini update_topic).',
  'process-list': 'The background processes the agent started, with their state (Gemini list_background_processes).',
  'task-complete': 'A subagent submitted its result and ended its task (Gemini complete_task).',
  'agent-wait': 'Subagents waited for: each one’s state and last message, or a timeout (Codex wait_agent).',
};
