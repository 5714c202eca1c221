/**
 * Migrations of what a column holds (migrations.ts lists them).
 */
export const VALUE_MIGRATIONS = [
  {
    // Windows reports a crash's exit code unsigned (0xC0000005 is 3221225477), past `integer`: the whole push failed.
    version: 26,
    name: "a call's exit code as wide as the laptop reads it (a Windows code, unsigned 32 bits)",
    sql: 'alter table calls alter column exit_code type bigint',
  },
];
