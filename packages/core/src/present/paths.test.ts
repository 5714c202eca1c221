/**
 * A Windows drive is named in either case (`c:\proj` and `C:\proj` are one folder; a terminal's folder and a tool's
 * path of one file differ so): a file under the session's folder written with the other case was shown whole, not
 * relative, and a project was listed twice, once per case of its drive letter (a review).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSessions } from '../../test/helpers.js';
import { joinedPath, relativePath } from './paths.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-drive-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('paths on a Windows drive', () => {
  it('are relative to the folder whatever the case of their letters or their separators', () => {
    expect(relativePath('c:\\Users\\Zoë\\app\\src\\b.ts', 'C:\\Users\\Zoë\\app')).toBe('src\\b.ts');
    expect(relativePath('C:/USERS/ZOË/APP/src/a.ts', 'C:\\Users\\Zoë\\app')).toBe('src/a.ts');
    // POSIX paths stay case-sensitive
    expect(relativePath('/home/U/app/a.ts', '/home/u/app')).toBe('/home/U/app/a.ts');
  });

  it('are one file whatever the case of the drive letter', () => {
    expect(joinedPath('c:\\proj\\a.cs')).toBe('C:\\proj\\a.cs');
    expect(joinedPath('src/a.cs', 'c:\\proj')).toBe('C:\\proj\\src\\a.cs');
    expect(joinedPath('/c/proj/a.cs')).toBe('/c/proj/a.cs');
  });

  it('are one project whatever the case of the drive letter the client wrote', async () => {
    const ids = ['d71e0000-0000-4000-8000-000000000001', 'd71e0000-0000-4000-8000-000000000002'];
    ids.forEach((id, i) => {
      const at = (uuid: string, parent: string | null, second: number) => ({
        ...basesOf(id)(uuid, parent, second),
        cwd: i === 0 ? 'c:\\Users\\Zoë\\app' : 'C:\\Users\\Zoë\\app',
      });
      writeLines(join(dir, 'projects', 'C--Users-Zo--app', `${id}.jsonl`), [
        prompt(at('u1', null, 1), 'Build it.'),
        assistantText(at('a1', 'u1', 2), 'msg_1', 'Built.'),
      ]);
    });
    const sessions = await loadSessions(dir);
    expect(sessions.map((s) => s.projectPath)).toEqual(['C:\\Users\\Zoë\\app', 'C:\\Users\\Zoë\\app']);
  });
});
