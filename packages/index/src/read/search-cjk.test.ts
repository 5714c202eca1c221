import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, basesOf, nextSessionId, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from '../index.js';

/** CJK words inside sentences (no spaces between words), found through a real index built from a transcript. */
describe('search over Chinese, Japanese and Korean text', () => {
  let dir: string;
  let index: AgentIndex;
  const sessionId = nextSessionId();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-cjk-'));
    const b = basesOf(sessionId);
    writeLines(join(dir, 'home', 'projects', '-home-user-proj-demo', `${sessionId}.jsonl`), [
      prompt(b('u1', null, 0), '我们的数据库连接失败，请看一下 error log'),
      assistantText(b('a1', 'u1', 1), 'msg_1', 'データベースへの接続に失敗しました。設定ファイルを確認します。'),
      prompt(b('u2', 'a1', 2), '데이터베이스가 연결이 안 됩니다'),
      assistantText(b('a2', 'u2', 3), 'msg_2', '数据很多，但是没有库'),
    ]);
    index = openIndex({ dbPath: join(dir, 'index.sqlite') });
    await index.refresh([join(dir, 'home')]);
  });
  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const snippets = async (query: string) => (await index.search(query)).map((h) => h.snippet);

  it('finds a Chinese word inside a sentence and marks it whole in the original text', async () => {
    expect(await snippets('数据库')).toEqual(['我们的\u0001数据库\u0002连接失败，请看一下 error log']);
  });

  it('finds a Japanese word inside a sentence (kana and kanji)', async () => {
    expect(await snippets('接続')).toEqual([
      'データベースへの\u0001接続\u0002に失敗しました。設定ファイルを確認します。',
    ]);
    expect(await snippets('ファイル')).toEqual([
      'データベースへの接続に失敗しました。設定\u0001ファイル\u0002を確認します。',
    ]);
  });

  it('finds a Korean word with its particle attached', async () => {
    expect(await snippets('데이터베이스')).toEqual(['\u0001데이터베이스\u0002가 연결이 안 됩니다']);
    expect(await snippets('연결')).toEqual(['데이터베이스가 \u0001연결\u0002이 안 됩니다']);
  });

  it('matches the characters next to each other only, not scattered', async () => {
    // 数据 and 库 are both in the last message, but not as 数据库
    expect((await index.search('数据库')).map((h) => h.kind)).toEqual(['prompt']);
    expect(await index.search('库数据')).toEqual([]);
  });

  it('takes CJK words together with other words, quoted phrases and prefixes', async () => {
    expect(await snippets('数据库 error')).toEqual([
      '我们的\u0001数据库\u0002连接失败，请看一下 \u0001error\u0002 log',
    ]);
    expect(await snippets('"连接失败"')).toEqual(['我们的数据库\u0001连接失败\u0002，请看一下 error log']);
    expect(await snippets('数据*')).toHaveLength(2);
    expect(await snippets('データ*')).toHaveLength(1);
  });
});
