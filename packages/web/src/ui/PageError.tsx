import { Component, type ReactNode } from 'react';
import { retryFailedPages } from './lazy-page';

interface Props {
  /** A new value (another page, another session) clears a failure shown for the last one. */
  readonly resetKey: string;
  readonly children: ReactNode;
}

interface State {
  readonly error: Error | undefined;
  readonly key: string;
}

/**
 * Whether an error is a page's code that could not be fetched: a tab left open across an upgrade asks for chunks
 * whose names changed (the server answers 404), or the server is gone. Browsers word it differently.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to load module script|Loading chunk/i.test(
    message,
  );
}

/**
 * What shows instead of a page that failed (its code not fetched, or an error while drawing it): the bar above stays,
 * the failure is said in words with a way on, never a blank window.
 */
export class PageError extends Component<Props, State> {
  override state: State = { error: undefined, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.key) return null;
    // another page: a page whose code could not be fetched is fetched again when shown
    if (state.error !== undefined) retryFailedPages();
    return { error: undefined, key: props.resetKey };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const stale = isChunkLoadError(error);
    return (
      <div className="page" role="alert" data-testid="page-error">
        <h2>{stale ? 'This page could not be loaded' : 'This page failed'}</h2>
        <p className="dim">
          {stale
            ? 'Its code could not be fetched from the server: AgentDash was probably updated or restarted since this tab was opened.'
            : `An error stopped it: ${error.message}`}
        </p>
        <p>
          {stale && (
            <>
              {/* the page's code is fetched again: the server may be back */}
              <button
                type="button"
                className="btn"
                onClick={() => {
                  retryFailedPages();
                  this.setState({ error: undefined });
                }}
                data-testid="page-error-retry"
              >
                Retry
              </button>{' '}
            </>
          )}
          <button
            type="button"
            className="btn"
            onClick={() => window.location.reload()}
            data-testid="page-error-reload"
          >
            Reload
          </button>{' '}
          <a href="#/">Back to the sessions</a>
        </p>
      </div>
    );
  }
}
