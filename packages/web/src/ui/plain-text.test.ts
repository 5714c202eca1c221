import { describe, expect, it } from 'vitest';
import { keepColours, plainText } from './plain-text';

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
});
