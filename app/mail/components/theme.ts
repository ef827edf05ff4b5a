import type { CSSProperties } from "react";

/*
 * The shop's look in an e-mail (decision 47): the storefront's colours (app/app.css) and its pair of
 * typefaces named first, then faces every mail client has. Web fonts are not loaded: most clients
 * ignore them, and a reader sees Georgia and Helvetica instead, as the storefront's own fallbacks.
 * Names go unquoted (valid CSS): quotes would be escaped into the style attributes.
 */

export const EMAIL_COLORS = {
  cream: "#faf6ef",
  sand: "#efe6d6",
  ink: "#2b2520",
  /** Passes WCAG AA on white and on cream: headings and the brand. */
  gold: "#7d5a1e",
  /** Secondary text (the footer, small print): AA on white. */
  muted: "#6b625a",
  white: "#ffffff",
} as const;

export const EMAIL_FONTS = {
  /** Names and headings (Cormorant Garamond on the storefront). */
  serif: "Cormorant Garamond, Georgia, Times New Roman, serif",
  /** Reading (Jost on the storefront). */
  sans: "Jost, Helvetica Neue, Helvetica, Arial, sans-serif",
} as const;

/** A paragraph's default look. */
export const paragraphStyle: CSSProperties = {
  fontFamily: EMAIL_FONTS.sans,
  fontSize: "15px",
  lineHeight: "24px",
  color: EMAIL_COLORS.ink,
  margin: "0 0 16px",
};
