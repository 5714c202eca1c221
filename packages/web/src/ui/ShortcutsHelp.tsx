import { useEffect, useRef, useState } from 'react';
import { SHORTCUTS, setSingleKeys, singleKeysOn } from './keys';

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Esc closes the dialog natively; the click is on the backdrop
    <dialog
      ref={ref}
      className="dialog"
      data-testid="shortcuts-help"
      onClose={onClose}
      onClick={(e) => e.target === ref.current && ref.current?.close()}
      aria-label="Keyboard shortcuts"
    >
      <div className="dialog-head">
        <h2>Keyboard shortcuts</h2>
        <button type="button" className="btn small" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
      <table className="keys-table">
        <thead>
          <tr>
            <th>Keys</th>
            <th>Does</th>
            <th>Where</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.what}>
              <td>
                {s.keys.map((k) => (
                  <kbd key={k}>{k}</kbd>
                ))}
              </td>
              <td>{s.what}</td>
              <td className="dim">{s.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <SingleKeysSwitch />
    </dialog>
  );
}

/** The switch of the one-character shortcuts (`singleKeysOn`): Ctrl K, the arrows, Home, End, Enter and Esc stay. */
function SingleKeysSwitch() {
  const [on, setOn] = useState(singleKeysOn);
  return (
    <label className="keys-switch">
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => {
          setSingleKeys(e.target.checked);
          setOn(e.target.checked);
        }}
        data-testid="single-keys"
      />
      Shortcuts of one character key (j, k, e, f, n, g, /, ?): turn them off where speech input or a stray key would set
      them off. Ctrl K, the arrows, Home, End, Enter and Esc work either way.
    </label>
  );
}
