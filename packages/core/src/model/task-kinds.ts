import { z } from './zod.js';

/*
 * Result kinds of the tools an agent plans and schedules its own work with: scheduled prompts (cron) and task
 * lists. Their data schemas, spread into `typed-result.ts`'s in their place (kept apart so that file stays
 * readable). Browser-safe, as typed-result.ts is.
 */

const num = z.number();
const str = z.string();
const opt = <T extends z.ZodType>(schema: T) => schema.optional();

export const taskKindSchemas = {
  'cron-create': z.object({
    id: str,
    humanSchedule: opt(str),
    recurring: opt(z.boolean()),
    durable: opt(z.boolean()),
    nextFireAt: opt(num),
    maxAgeMs: opt(num),
  }),
  'cron-delete': z.object({ id: str }),
  'cron-list': z.object({
    jobs: z.array(
      z.object({
        id: str,
        cron: opt(str),
        humanSchedule: opt(str),
        prompt: opt(str),
        recurring: opt(z.boolean()),
        durable: opt(z.boolean()),
        nextFireAt: opt(num),
      }),
    ),
  }),
  'task-create': z.object({ taskId: str, subject: str, description: opt(str) }),
  'task-get': z.object({
    task: z
      .object({
        id: str,
        subject: str,
        description: opt(str),
        status: opt(str),
        blocks: opt(z.array(str)),
        blockedBy: opt(z.array(str)),
      })
      .nullable(),
  }),
  'task-update': z.object({
    success: z.boolean(),
    taskId: str,
    updatedFields: z.array(str),
    error: opt(str),
    statusChange: opt(z.object({ from: str, to: str })),
  }),
  'task-list': z.object({
    tasks: z.array(z.object({ id: str, subject: str, status: str, owner: opt(str), blockedBy: opt(z.array(str)) })),
  }),
} as const;
