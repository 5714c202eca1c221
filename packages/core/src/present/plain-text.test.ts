import { describe, expect, it } from 'vitest';
import { keepColours, plainText } from './plain-text.js';

// A terminal's worst: a title (OSC 0), a hyperlink (OSC 8), erase and cursor home, C1 CSI, bell, backspace, NUL, CR.
const hostile =
  '\u001b]0;PWNED\u0007\u001b[2J\u001b[H\u001b[31mRED\u001b[0m \u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\ ' +
  '\u009b31mC1\u009b2J\r\nnext\rover\u0008\u0000 \u001bcend\u001b';

describe('terminal control text out of log text', () => {
  it('keeps colours and the words sequences carry, drops the rest', () => {
    expect(keepColours(hostile)).toBe('\u001b[31mRED\u001b[0m link C1\nnext\nover end');
  });

  it('plain text has no control character but newline and tab', () => {
    const plain = plainText(hostile);
    expect(plain).toBe('RED link C1\nnext\nover end');
    expect(plainText('a\tb\nc')).toBe('a\tb\nc');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be left
    expect(plainText(`${hostile}\u001b[`)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('lets no sequence hide the text after it, nor leave an ESC or a C1 control behind', () => {
    // An OSC never ended stops at its line's end; one ended by ST (U+009C) ends there.
    expect(plainText('prompt: \u001b]8;;http://x run this\nrm -rf / now\nmore')).toBe('prompt: \nrm -rf / now\nmore');
    expect(plainText('a\u009d0;title\u009cb')).toBe('ab');
    expect(plainText('a\u001b]0;title\u001b\\b')).toBe('ab');
    // ESC before a newline or a line separator; ESC ESC [2J; C1 DCS.
    expect(plainText('a\u001b\nb')).toBe('a\nb');
    expect(plainText('a\u001b\u2028b')).toBe('ab');
    expect(plainText('ok\u001b\u001b[2Jsecret')).toBe('oksecret');
    expect(plainText('x\u0090q1;2\u009cy')).toBe('xy');
    expect(keepColours('a\u001b\nb')).toBe('a\nb');
    expect(keepColours('\u001b[31mred\u001b[0m\u001b\u001b7x\u001b')).toBe('\u001b[31mred\u001b[0mx');
  });
});
