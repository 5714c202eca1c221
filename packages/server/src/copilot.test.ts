import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentApiSuite, readManifest } from '../test/agent-api-suite.js';

const copilot = resolve(dirname(fileURLToPath(import.meta.url)), '../../core/test/fixtures/copilot');
const fixture = join(copilot, '1.0.102');

agentApiSuite(
  {
    agent: { id: 'copilot', label: 'Copilot CLI', resume: ['copilot', '--resume'] },
    fixture,
    home: 'copilot-home',
    // Two real sessions beside the recording.
    alsoIndexed: [join(copilot, 'wild/entire-agentv-1')],
    kinds: { create: 'write', view: 'read', glob: 'glob', grep: 'grep', edit: 'edit', bash: 'bash', 'rec-echo': 'mcp' },
  },
  readManifest(fixture),
);
