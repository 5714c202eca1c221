/** Every command, loaded together (the library export and the tests; the CLI loads only the command it runs). */
import { archiveCommand } from './archive.js';
import type { CommandSpec } from './common.js';
import { exportCommand } from './export.js';
import { indexCommand } from './index-cmd.js';
import { otelCommand } from './otel.js';
import { pushCommand } from './push.js';
import { schemaCommand } from './schema.js';
import { searchCommand } from './search.js';
import { secretsCommand } from './secrets.js';
import { serveCommand } from './serve.js';
import { sessionsCommand } from './sessions.js';
import { showCommand } from './show.js';
import { statsCommand } from './stats.js';
import { statuslineCommand } from './statusline.js';
import { teamCommand } from './team.js';
import { usageCommand } from './usage.js';

export const commands: readonly CommandSpec[] = [
  sessionsCommand,
  showCommand,
  statsCommand,
  usageCommand,
  statuslineCommand,
  searchCommand,
  exportCommand,
  secretsCommand,
  schemaCommand,
  indexCommand,
  archiveCommand,
  serveCommand,
  otelCommand,
  pushCommand,
  teamCommand,
];
