// Starts the shop: `node server.js` serves the production build, `node server.js --dev` runs
// Vite in middleware mode for development. Everything else lives in server/app.ts.
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

// Settings come from the environment, or from a .env file beside this one (ENV_FILE= to skip it).
const envFile = process.env.ENV_FILE ?? ".env";
if (envFile && existsSync(envFile)) process.loadEnvFile(envFile);

const development = process.argv.includes("--dev");
process.env.NODE_ENV ??= development ? "development" : "production";

const SHUTDOWN_GRACE_MS = 10_000;

function fail(message) {
  console.error(message);
  process.exit(1);
}

// A stop asked for while starting (e.g. during the first seed) ends at once: start-up writes
// nothing half-done, so there is nothing to finish.
let server;
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => (server ? shutdown(signal) : process.exit(0)));
}

async function loadShopModule() {
  if (!development) {
    try {
      return { shopModule: await import("./build/server/index.js"), vite: undefined };
    } catch (error) {
      if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("build/server")) {
        fail("No hay compilación: ejecuta `npm run build` (o `npm start`, que compila y arranca).");
      }
      throw error;
    }
  }
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  return { shopModule: await vite.ssrLoadModule("./server/app.ts"), vite };
}

const { shopModule, vite } = await loadShopModule();
let shop;
try {
  shop = await shopModule.createShop({
    clientDir: development ? undefined : fileURLToPath(new URL("./build/client", import.meta.url)),
  });
} catch (error) {
  // Start-up problems (bad setting, unreachable database, unwritable folder) are the operator's
  // to fix: one clear line, no stack trace.
  if (error?.name === "StartupError") fail(error.message);
  throw error;
}

const express = (await import("express")).default;
const root = express();
root.disable("x-powered-by");
// While stopping, every response tells its client to reconnect elsewhere, so keep-alive
// connections (a load balancer's) end with their current request. Decided when the response is
// written, not when the request arrived: a request may be in progress when the signal comes.
root.use((_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (stopping && !this.headersSent) this.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  };
  next();
});
if (vite) root.use(vite.middlewares);
root.use(shop.app);

const { host, port } = shop.config;
// A request without a Host header is answered by the shop itself (a Spanish 400), not by Node.
server = createServer({ requireHostHeader: false }, root);
shopModule.answerParserErrors(server);
server.listen(port, host, () => {
  const address = server.address();
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  console.log(`Tienda lista en http://${shown}:${address.port}`);
});
server.on("error", (error) => {
  if (error.code === "EADDRINUSE") fail(`El puerto ${port} ya está en uso. Usa otro con PORT=…`);
  if (error.code === "EACCES") fail(`Sin permiso para escuchar en el puerto ${port}. Usa otro con PORT=…`);
  throw error;
});
// Keep-alive connections from a load balancer must outlive its idle timeout.
server.keepAliveTimeout = 65_000;

function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: cerrando; se terminan las peticiones en curso…`);
  const force = setTimeout(() => {
    console.error("Cierre forzado: aún había peticiones después de 10 s.");
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  force.unref();
  server.close(async () => {
    clearInterval(sweep);
    await shop.close().catch((error) => console.error(error));
    await vite?.close();
    process.exit(0);
  });
  // Connections that finish their request become idle: close them as they do.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 200);
}
