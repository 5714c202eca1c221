/** Parsers of the user-facing tools: AskUserQuestion, ExitPlanMode, EnterPlanMode, Skill (SlashCommand). */
import { bool, isRecord, str } from '../../../../internal/guards.js';
import { strArray } from '../text.js';
import { type DataParser, rec } from './shared.js';

function questionList(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((q) => ({
    question: str(q.question) ?? '',
    header: str(q.header),
    multiSelect: bool(q.multiSelect),
    options: Array.isArray(q.options)
      ? q.options.filter(isRecord).map((o) => ({ label: str(o.label) ?? '', description: str(o.description) }))
      : [],
  }));
}

/** `"Q"="A", "Q2"="A2"` pairs of the AskUserQuestion result text. */
export function parseAnswerPairs(text: string): Record<string, string> {
  const answers: Record<string, string> = {};
  const re = /"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) answers[m[1] ?? ''] = m[2] ?? '';
  return answers;
}

export const askUserQuestion: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const raw = rec(tur.answers);
    if (!raw) return undefined;
    const answers: Record<string, string> = {};
    for (const [q, a] of Object.entries(raw)) {
      if (typeof a === 'string') answers[q] = a;
      else if (Array.isArray(a)) answers[q] = (strArray(a) ?? []).join(', ');
    }
    return { questions: questionList(tur.questions ?? ctx.input.questions), answers };
  }
  const prefix = /^User has answered your questions?: /.exec(ctx.text);
  if (!prefix) return undefined;
  return { questions: questionList(ctx.input.questions), answers: parseAnswerPairs(ctx.text.slice(prefix[0].length)) };
};

export const exitPlanMode: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  const text = ctx.text;
  const rejected = /doesn't want to proceed|rejected/i.test(text) && !/approved/i.test(text);
  if (tur) {
    if (!('plan' in tur) && !('isAgent' in tur)) return undefined;
    return {
      plan: str(tur.plan) ?? str(ctx.input.plan) ?? null,
      approved: !rejected,
      filePath: str(tur.filePath),
      isAgent: bool(tur.isAgent),
    };
  }
  const approved = /User has approved (?:your|the) plan/.test(text);
  if (!approved && !rejected) return undefined;
  const planSection = /\n## Approved Plan:\n([\s\S]*)$/.exec(text);
  return {
    plan: str(ctx.input.plan) ?? planSection?.[1] ?? null,
    approved,
    filePath: /Your plan has been saved to: (.+)/.exec(text)?.[1],
  };
};

export const enterPlanMode: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  const message = str(tur?.message) ?? ctx.text.split('\n\n')[0];
  if (tur && str(tur.message) === undefined) return undefined;
  return { message };
};

export const skill: DataParser = (ctx) => {
  const tur = rec(ctx.structured);
  if (tur) {
    const commandName = str(tur.commandName);
    if (commandName === undefined) return undefined;
    return {
      commandName,
      success: bool(tur.success),
      status: str(tur.status),
      agentId: str(tur.agentId),
      result: str(tur.result),
      allowedTools: strArray(tur.allowedTools),
      model: str(tur.model),
    };
  }
  const text = ctx.text;
  const launching = /^Launching (?:skill|command|slash command): \/?(\S.*)$/m.exec(text);
  if (launching) return { commandName: (launching[1] ?? '').trim(), success: true };
  const forked = /^Skill "(.+?)" completed \(forked execution\)\.?(?:\n\nResult:\n([\s\S]*))?/.exec(text);
  if (forked) return { commandName: forked[1], success: true, status: 'forked', result: forked[2] };
  return undefined;
};
