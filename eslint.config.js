import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/api/src/db/migrations/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // A feature never reaches into another feature's internals; shared pieces live in components/ and lib/.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*/*/**'],
              message: 'Import another feature only through its top-level files, not its internals.',
            },
          ],
        },
      ],
      // Page headings take their size from the heading scale in styles.css (decision 1862), not from
      // size or weight classes of their own.
      'no-restricted-syntax': [
        'error',
        ...['Literal[value=', 'TemplateElement[value.raw='].map((node) => ({
          selector: `JSXOpeningElement[name.name=/^h[12]$/] > JSXAttribute[name.name='className'] ${node}/(^|\\s)((sm|md|lg):)?(text-(xs|sm|base|lg|xl|[2-9]xl)|font-(bold|semibold))(\\s|$)/]`,
          message:
            'Give an h1 or h2 its size with heading-display, -title, -section, -card, -item or -label (styles.css).',
        })),
      ],
    },
  },
  {
    // Imports run one way (ARCHITECTURE.md): app.ts and the web's app/ compose features, features use
    // platform/, lib/ and components/, never the reverse, and no module reaches itself again.
    files: ['apps/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these .ts/.tsx files are not followed (parsed) and no-cycle sees nothing.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      // Resolves each app's `@/` alias and the workspace packages as tsc does.
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/api/tsconfig.json', 'apps/web/tsconfig.json', 'packages/contracts/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // Packages cannot import back into our apps, so skip them: the walk stays inside apps/.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './apps/web/src/features',
              from: './apps/web/src/app',
              message: 'app/ composes features; move what a feature needs into lib/ or components/.',
            },
            {
              target: ['./apps/web/src/components', './apps/web/src/lib'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'Shared code never imports features or the app layer.',
            },
            {
              target: './apps/api/src/features',
              from: './apps/api/src/app.ts',
              message: 'app.ts composes features; what features share lives in features/shared.ts.',
            },
            {
              target: ['./apps/api/src/platform', './apps/api/src/db'],
              from: ['./apps/api/src/features', './apps/api/src/app.ts'],
              message: 'platform/ and db/ never import features nor app.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // A feature's test composes the whole app, as main.ts does; the zones hold for the code it tests.
    files: ['apps/api/src/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
);
