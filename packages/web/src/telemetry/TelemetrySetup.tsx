import { CopyButton } from '../ui/CopyButton';
import { useTelemetrySetup } from './use-telemetry';
import './telemetry.css';

/**
 * How to send Claude Code's own telemetry here: the `env` lines for `~/.claude/settings.json`, the very lines
 * `agentdash otel setup` prints (both come from core's `claudeCodeTelemetryEnv`, through `/api/telemetry/setup`).
 */
export function TelemetrySetup() {
  const setup = useTelemetrySetup();
  if (!setup) return null;
  const text = JSON.stringify({ env: setup.env }, null, 2);
  return (
    <details className="tel-setup" data-testid="telemetry-setup">
      <summary>
        Claude Code telemetry:{' '}
        {setup.listening ? `receiving OTLP on ${setup.endpoint}` : `not receiving (${setup.reason ?? 'off'})`}
      </summary>
      <p className="dim">
        Add to <code>~/.claude/settings.json</code> (merge into <code>env</code> if it has one), then start Claude Code
        again: each call's exact duration and the client's own cost join its transcript, and a session shows here as
        soon as it starts.
      </p>
      <pre data-testid="telemetry-env">{text}</pre>
      <CopyButton
        text={text}
        label="Copy"
        title="Copy the env lines"
        className="btn small"
        testId="copy-telemetry-env"
      />
    </details>
  );
}
