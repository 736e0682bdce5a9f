import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'src/core and src/cli must stay free of vscode; host services come in through interfaces.' }],
  }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', 'out/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  { files: ['src/core/**/*.ts', 'src/cli/**/*.ts'], rules: noVscode },
);
