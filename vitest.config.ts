import { defineConfig } from 'vitest/config';

const source = { conditions: ['@agentdash/source'] };

export default defineConfig({
  test: {
    globalSetup: ['./test/corpus-notice.ts'],
    projects: [
      {
        resolve: source,
        ssr: { resolve: source },
        test: {
          name: 'core',
          root: 'packages/core',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: source,
        ssr: { resolve: source },
        test: {
          name: 'index',
          root: 'packages/index',
          include: ['src/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: source,
        ssr: { resolve: source },
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['src/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: source,
        ssr: { resolve: source },
        test: {
          name: 'team',
          root: 'packages/team',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: source,
        ssr: { resolve: source },
        test: {
          name: 'cli',
          root: 'packages/cli',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: source,
        ssr: { resolve: source },
        test: {
          name: 'web',
          root: 'packages/web',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
