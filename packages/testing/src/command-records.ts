/**
 * Slash commands as real Claude Code clients wrote them, for tests: as `local_command` system records (2.1.218 for
 * `/remote-control` with nothing printed, then the note its bridge wrote; 2.0.69 for `/resume` and what it printed,
 * each from a wild session of ../shared/wild), then a prompt and a reply, in one session's file.
 */
import { join } from 'node:path';
import { assistantText, basesOf, prompt, writeLines } from './synthetic.js';

/** The session the lines are written as, and its project folder. */
export const COMMAND_SESSION = '0f469ab8-bece-40b3-b3b8-c37e9ea7bc4b';
const CWD = '/Users/thomi/Projects/entire-graph';

const base = (uuid: string, parentUuid: string | null, timestamp: string, version: string) => ({
  parentUuid,
  isSidechain: false,
  uuid,
  timestamp,
  isMeta: false,
  userType: 'external',
  entrypoint: 'cli',
  cwd: CWD,
  sessionId: COMMAND_SESSION,
  version,
  gitBranch: 'fix/corpus-parse-errors',
});

const localCommand = (uuid: string, parent: string | null, at: string, version: string, content: string) =>
  JSON.stringify({
    ...base(uuid, parent, at, version),
    type: 'system',
    subtype: 'local_command',
    content,
    level: 'info',
  });

/** The lines, in the order the clients wrote them. */
export const COMMAND_LINES: readonly string[] = [
  localCommand(
    '0bebbc4a-311c-4ecd-bb66-ac7eca14ecac',
    null,
    '2026-01-02T10:00:00.330Z',
    '2.1.218',
    '<command-name>/remote-control</command-name>\n            <command-message>remote-control</command-message>\n            <command-args></command-args>',
  ),
  localCommand(
    'c02bfc42-9559-453d-8885-a2444fa6ec01',
    '0bebbc4a-311c-4ecd-bb66-ac7eca14ecac',
    '2026-01-02T10:00:00.330Z',
    '2.1.218',
    '<local-command-stdout></local-command-stdout>',
  ),
  JSON.stringify({
    ...base(
      '36034ac3-b75d-4ccd-b376-cc936a535a37',
      'c02bfc42-9559-453d-8885-a2444fa6ec01',
      '2026-01-02T10:00:00.916Z',
      '2.1.218',
    ),
    type: 'system',
    subtype: 'bridge_status',
    content: '/remote-control is active · Continue here, on your phone, or at https://claude.ai/code/session_01Km',
    url: 'https://claude.ai/code/session_01Km',
  }),
  localCommand(
    '2785114a-3fbf-43c9-9989-6926db8e05fe',
    '36034ac3-b75d-4ccd-b376-cc936a535a37',
    '2026-01-02T10:00:01.566Z',
    '2.0.69',
    '<command-name>/resume</command-name>\n            <command-message>resume</command-message>\n            <command-args></command-args>',
  ),
  localCommand(
    '192f6c2d-83c8-466e-bb6f-559d83c34643',
    '2785114a-3fbf-43c9-9989-6926db8e05fe',
    '2026-01-02T10:00:01.566Z',
    '2.0.69',
    '<local-command-stdout>Resume cancelled</local-command-stdout>',
  ),
  prompt(
    { ...basesOf(COMMAND_SESSION)('u1', '192f6c2d-83c8-466e-bb6f-559d83c34643', 5), cwd: CWD },
    'Rank the implementation first.',
  ),
  assistantText({ ...basesOf(COMMAND_SESSION)('a1', 'u1', 6), cwd: CWD }, 'msg_cmd_1', 'Looking at the ranking.'),
];

/** Writes the session into `home` (a Claude Code home: `projects/` under it); returns the file's path. */
export function writeCommandSession(home: string): string {
  const path = join(home, 'projects', '-Users-thomi-Projects-entire-graph', `${COMMAND_SESSION}.jsonl`);
  writeLines(path, COMMAND_LINES);
  return path;
}
