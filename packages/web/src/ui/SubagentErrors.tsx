import type { SubagentInfo } from '../data/types';

/** "3 errors inside": an Agent call's roll-up of its subagent's errors, in the severity's colour. */
export function SubagentErrors({ sub }: { sub: SubagentInfo | null }) {
  if (!sub || (sub.errors ?? 0) + (sub.expectedErrors ?? 0) === 0) return null;
  const errors = sub.errors ?? 0;
  const expected = sub.expectedErrors ?? 0;
  const severity = errors > 0 ? 'error' : 'expected';
  const text =
    errors > 0
      ? `${errors} ${errors === 1 ? 'error' : 'errors'} inside${expected > 0 ? ` · ${expected} expected` : ''}`
      : `${expected} expected inside`;
  return (
    <span
      className={`badge ${severity}`}
      data-testid="subagent-errors"
      data-severity={severity}
      data-errors={errors}
      title="Errors of calls inside this subagent (and the subagents it started); e jumps to the next one"
    >
      {text}
    </span>
  );
}
