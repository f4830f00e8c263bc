import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// ws: true forwards WebSocket upgrades under /api too (live chat, notifications).
const proxy = { "/api": { target: "http://localhost:3000", ws: true } };

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Lets `npm run size` follow what each first visit loads (scripts/size.mjs).
    manifest: true,
    // Every browser we support preloads modules natively; the polyfill only cost the entry chunk bytes.
    modulePreload: { polyfill: false },
  },
});
