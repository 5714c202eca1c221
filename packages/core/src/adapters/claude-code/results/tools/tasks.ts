/** Parsers of the planning and scheduling tools: TodoWrite, Task*, Cron*, ScheduleWakeup. */
import { bool, isRecord, num, str } from '../../../../internal/guards.js';
import { strArray } from '../text.js';
import { type DataParser, rec } from './shared.js';

function todos(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((t) => ({
    content: str(t.content) ?? '',
    status: str(t.status) ?? 'pending',
    activeForm: str(t.activeForm),
    priority: str(t.priority),
    id: str(t.id) ?? (typeof t.id === 'number' ? String(t.id) : undefined),
  }));
}

export const todoWrite: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const newTodos = todos(tur.newTodos);
    if (!newTodos) return undefined;
    return { oldTodos: todos(tur.oldTodos), newTodos };
  }
  if (!/Todos have been modified successfully/.test(ctx.text)) return undefined;
  return { newTodos: todos(ctx.input.todos) ?? [] };
};

export const taskCreate: DataParser = (ctx) => {
  const task = rec(rec(ctx.structured)?.task);
  if (task) {
    const taskId = str(task.id);
    if (taskId === undefined) return undefined;
    return { taskId, subject: str(task.subject) ?? '', description: str(task.description) };
  }
  if (ctx.structured !== undefined) return undefined;
  const m = /^Task #(\S+) created successfully: (.*)$/m.exec(ctx.text);
  return m ? { taskId: m[1], subject: m[2], description: str(ctx.input.description) } : undefined;
};

export const taskGet: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!('task' in tur)) return undefined;
    const task = rec(tur.task);
    if (!task) return { task: null };
    return {
      task: {
        id: str(task.id) ?? '',
        subject: str(task.subject) ?? '',
        description: str(task.description),
        status: str(task.status),
        blocks: strArray(task.blocks),
        blockedBy: strArray(task.blockedBy),
      },
    };
  }
  const text = ctx.text;
  if (/^Task not found/i.test(text.trim())) return { task: null };
  const head = /^Task #(\S+): (.*)$/m.exec(text);
  if (!head) return undefined;
  const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1];
  const ids = (value: string | undefined) => value?.split(/,\s*/).map((v) => v.replace(/^#/, ''));
  return {
    task: {
      id: head[1] ?? '',
      subject: head[2] ?? '',
      status: field('Status'),
      description: field('Description'),
      blocks: ids(field('Blocks')),
      blockedBy: ids(field('Blocked by')),
    },
  };
};

export const taskUpdate: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const success = bool(tur.success);
    if (success === undefined) return undefined;
    const change = rec(tur.statusChange);
    return {
      success,
      taskId: str(tur.taskId) ?? str(ctx.input.taskId) ?? '',
      updatedFields: strArray(tur.updatedFields) ?? [],
      error: str(tur.error),
      statusChange: change && { from: str(change.from) ?? '', to: str(change.to) ?? '' },
    };
  }
  const m = /^Updated task #(\S+) (.*)$/m.exec(ctx.text);
  if (m) return { success: true, taskId: m[1], updatedFields: (m[2] ?? '').split(/,\s*/).filter((f) => f !== '') };
  const taskId = str(ctx.input.taskId);
  if (taskId !== undefined && /not found/i.test(ctx.text)) {
    return { success: false, taskId, updatedFields: [], error: ctx.text.trim() };
  }
  return undefined;
};

export const taskList: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!Array.isArray(tur.tasks)) return undefined;
    return {
      tasks: tur.tasks.filter(isRecord).map((t) => ({
        id: str(t.id) ?? '',
        subject: str(t.subject) ?? '',
        status: str(t.status) ?? '',
        owner: str(t.owner),
        blockedBy: strArray(t.blockedBy),
      })),
    };
  }
  const tasks: unknown[] = [];
  for (const line of ctx.text.split('\n')) {
    const m = /^#(\S+) \[(\w+)\] (.*)$/.exec(line);
    if (m) tasks.push({ id: m[1], status: m[2], subject: m[3] });
  }
  if (tasks.length === 0 && !/^No tasks/i.test(ctx.text.trim())) return undefined;
  return { tasks };
};

export const cronCreate: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const id = str(tur.id);
    if (id === undefined) return undefined;
    return {
      id,
      humanSchedule: str(tur.humanSchedule),
      recurring: bool(tur.recurring),
      durable: bool(tur.durable),
      nextFireAt: num(tur.nextFireAt),
      maxAgeMs: num(tur.maxAgeMs),
    };
  }
  const match = /^Scheduled (recurring|one-shot|one-time)? ?job (\S+) \((.+?)\)/.exec(ctx.text);
  if (!match) return undefined;
  return { id: match[2], humanSchedule: match[3], recurring: match[1] === 'recurring' };
};

export const cronDelete: DataParser = (ctx) => {
  const id = str(rec(ctx.structured)?.id) ?? /^Cancelled job (\S+?)\.?$/m.exec(ctx.text)?.[1];
  return id === undefined ? undefined : { id };
};

export const cronList: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    if (!Array.isArray(tur.jobs)) return undefined;
    return {
      jobs: tur.jobs.filter(isRecord).map((j) => ({
        id: str(j.id) ?? '',
        cron: str(j.cron),
        humanSchedule: str(j.humanSchedule),
        prompt: str(j.prompt),
        recurring: bool(j.recurring),
        durable: bool(j.durable),
        nextFireAt: num(j.nextFireAt),
      })),
    };
  }
  const jobs: unknown[] = [];
  for (const line of ctx.text.split('\n')) {
    const m = /^(\S+) — (.+?)(?: \((recurring|one-shot)\))?(?: \[[^\]]*\])?(?:, next run .*?)?: (.*)$/.exec(line);
    if (m)
      jobs.push({
        id: m[1],
        humanSchedule: m[2],
        recurring: m[3] === undefined ? undefined : m[3] === 'recurring',
        prompt: m[4],
      });
  }
  if (jobs.length === 0 && !/^No (scheduled )?jobs/i.test(ctx.text.trim())) return undefined;
  return { jobs };
};

export const scheduleWakeup: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (!tur) return undefined;
  const scheduledFor = num(tur.scheduledFor);
  const clampedDelaySeconds = num(tur.clampedDelaySeconds);
  const wasClamped = bool(tur.wasClamped);
  if (scheduledFor === undefined || clampedDelaySeconds === undefined || wasClamped === undefined) return undefined;
  return {
    scheduledFor,
    clampedDelaySeconds,
    wasClamped,
    stopped: bool(tur.stopped),
    cancelledWakeups: num(tur.cancelledWakeups),
  };
};
