import { CopyButton } from '../ui/CopyButton';
import { useTelemetrySetup } from './use-telemetry';
import './telemetry.css';

/**
 * How to send an agent's own telemetry here: the `env` lines for `~/.claude/settings.json`, the `[otel]` lines for
 * Codex CLI and the settings for Gemini CLI, the very lines `agentdash otel setup` prints (from core, through
 * `/api/telemetry/setup`).
 */
export function TelemetrySetup() {
  const setup = useTelemetrySetup();
  if (!setup) return null;
  const text = JSON.stringify({ env: setup.env }, null, 2);
  const gemini = JSON.stringify(setup.geminiSettings, null, 2);
  return (
    <details className="tel-setup" data-testid="telemetry-setup">
      <summary>
        Agent telemetry:{' '}
        {setup.listening ? `receiving OTLP on ${setup.endpoint}` : `not receiving: ${setup.reason ?? 'off'}`}
      </summary>
      <p className="dim">
        Add to <code>~/.claude/settings.json</code> (merge into <code>env</code> if it has one), then start Claude Code
        again: each call's exact duration and the client's own cost join its transcript, and a session shows here as
        soon as it starts.
      </p>
      {setup.authorization !== null && (
        <p className="dim" data-testid="telemetry-token-note">
          Each machine sends with its own device token (<code>agentdash team add-device</code> prints it; a viewer's
          token is refused) in place of <code>{setup.authorization.replace(/^Bearer /, '')}</code>.
        </p>
      )}
      <pre data-testid="telemetry-env">{text}</pre>
      <CopyButton
        text={text}
        label="Copy"
        title="Copy the env lines"
        className="btn small"
        testId="copy-telemetry-env"
      />
      <p className="dim">
        Codex CLI: add to <code>~/.codex/config.toml</code>. Gemini CLI: merge into <code>~/.gemini/settings.json</code>
        . Each reports its own model and tool times (no cost).
      </p>
      <pre data-testid="telemetry-codex">{setup.codexToml}</pre>
      <pre data-testid="telemetry-gemini">{gemini}</pre>
    </details>
  );
}
