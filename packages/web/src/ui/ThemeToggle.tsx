import { useTheme } from './theme';

const LABEL = { system: 'Theme: follows the system', light: 'Theme: light', dark: 'Theme: dark' } as const;

export function ThemeToggle() {
  const { choice, effective, cycle } = useTheme();
  return (
    <button
      type="button"
      className="icon-btn"
      onClick={cycle}
      title={`${LABEL[choice]} (click to change)`}
      aria-label={LABEL[choice]}
      data-testid="theme-toggle"
      data-theme-choice={choice}
    >
      <span aria-hidden="true">{effective === 'dark' ? '☾' : '☀'}</span>
      {choice === 'system' && <span className="icon-btn-note">auto</span>}
    </button>
  );
}
