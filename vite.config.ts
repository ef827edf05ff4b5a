import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // The server bundle's entry is our Express app (server/app.ts), which imports the
  // React Router build itself; server.js only listens and shuts down.
  environments: {
    ssr: {
      build: { rollupOptions: { input: "./server/app.ts" } },
      // React Email's components package re-exports all of them, Tailwind's and the code block's
      // compilers included (over half a second and tens of MB at each start, decision 47): bundled,
      // only the components the e-mails use are kept. Kysely and better-auth are hundreds of small
      // modules each, which Node resolved and loaded one by one at every start (and again in the
      // render thread): bundled, importing the server took 510-575 ms instead of 820-910. Both are
      // bundled whole, with better-auth's Kysely adapter, so one copy of Kysely is loaded.
      resolve: { noExternal: [/^@react-email\//, "kysely", /^better-auth/, /^@better-auth\//] },
    },
    // React, React DOM and React Router in one file, which every page loads anyway: it compresses
    // better than the pieces, and a lazily loaded module that needs React DOM (the photo viewer's
    // portal) does not split React DOM's small entry out into a file of its own (decision 21).
    client: {
      build: {
        rollupOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "react", test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
                // What every public page runs besides its own route: the shell (header, footer,
                // the cart's state), the clock, the countdown, tiles and photos, the metal's words
                // (alone, their file cost the product page more than they weigh). One file
                // compresses better than a dozen small ones (home's and the product page's
                // JavaScript budget, `npm run bench:storefront`).
                {
                  name: "storefront",
                  test: /app[\\/](components[\\/](route-error|responsive-image|shop-clock|drop-countdown|waitlist-form-lazy|preview-banner-lazy|swipe[\\/]use-swipe|product-tile|picture|site-header|site-footer|cart[\\/](cart-context|lazy-cart-drawer))\.tsx|cart[\\/](cart|cart-store)\.ts|web[\\/](paths|nonce)\.ts|lib[\\/](seo|money)\.ts|catalogue[\\/](drop-time|metal)\.ts|content[\\/]legal\.ts)$/,
                },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
