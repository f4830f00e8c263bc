import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const contractSrc = fileURLToPath(new URL("../../packages/contract/src/", import.meta.url));
const apiTarget = "http://localhost:3000";
// ws: true forwards WebSocket upgrades under /api too (live chat, notifications).
const proxy = { "/api": { target: apiTarget, ws: true } };

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    // The contract ships TypeScript source. Imports are written with an explicit ".ts" (house style), which the
    // package's "./*" export pattern would turn into "auth.ts.ts"; point both spellings at the source file.
    alias: [{ find: /^@cove\/contract\/(.+?)(?:\.ts)?$/, replacement: `${contractSrc}$1.ts` }],
  },
  server: { proxy },
  preview: { proxy },
  build: { outDir: "dist", emptyOutDir: true },
});
