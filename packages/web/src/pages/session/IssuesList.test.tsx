/** A failed request for a session's issues says so: it read "No issues." under a badge counting one. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { IssuesList } from './IssuesList';

describe('IssuesList', () => {
  it('lists each issue with its code and line', () => {
    const html = renderToStaticMarkup(
      <IssuesList issues={[{ code: 'orphan_result', file: 'a.jsonl', line: 5, message: 'no call' }]} />,
    );
    expect(html).toContain('orphan_result');
    expect(html).toContain('line 5');
    expect(html).not.toContain('No issues.');
  });

  it('says why the issues could not be listed instead of "No issues."', () => {
    const html = renderToStaticMarkup(<IssuesList issues={{ error: 'a worker thread stopped' }} />);
    expect(html).toContain('The issues could not be listed: a worker thread stopped');
    expect(html).not.toContain('No issues.');
  });

  it('says where the issues are when the list holds none of those counted (a team server keeps the count only)', () => {
    const html = renderToStaticMarkup(<IssuesList issues={[]} counted={2} />);
    expect(html).toContain('These 2 issues were counted where the session was read');
    expect(html).not.toContain('No issues.');
  });
});
