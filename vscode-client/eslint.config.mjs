// The extension's lint step (`npm run lint`, run by .ci/run): ESLint's and typescript-eslint's
// recommended rules over src/. Type errors are tsc's job (`npm run typecheck`, strict).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "out/**", "bundled/**", "node_modules/**", "scripts/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
);
