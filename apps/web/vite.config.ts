import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// ws: true forwards WebSocket upgrades under /api too (live chat, notifications).
const proxy = { "/api": { target: "http://localhost:3000", ws: true } };

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { proxy },
  preview: { proxy },
  build: { outDir: "dist", emptyOutDir: true },
});
