import { describe, expect, it } from 'vitest';
import { agentAdapters } from './adapters.js';
import { loadHomes } from './homes.js';

describe('loadHomes', () => {
  it('says what each registered adapter says of its homes, in the registry order', async () => {
    const agentHomes = await loadHomes();
    expect(agentHomes.map((a) => a.id)).toEqual(agentAdapters.map((a) => a.id));
    const env = {
      CLAUDE_CONFIG_DIR: '/c',
      CODEX_HOME: '/x',
      GEMINI_CLI_HOME: '/g',
      COPILOT_HOME: '/p',
      QWEN_HOME: '/q',
    };
    for (const [i, adapter] of agentAdapters.entries()) {
      const homes = agentHomes[i];
      expect(homes?.recognizes).toBe(adapter.recognizes);
      for (const e of [env, {}]) expect(homes?.defaultHomes(e, '/home/u')).toEqual(adapter.defaultHomes(e, '/home/u'));
    }
  });
});
