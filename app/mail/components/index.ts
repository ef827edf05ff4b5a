/*
 * The shared parts every e-mail to a buyer is built from (decision 47, docs/decisions/0047-*.md has
 * the recipe for a new one). Domain folders import them from here.
 */

export { contactLine } from "../layout";
export {
  AddressBlock,
  addressText,
  ButtonLink,
  OrderPageLink,
  orderPageLinkText,
  Paragraph,
  SectionHeading,
  StepList,
  TextLink,
} from "./blocks";
export { ShopEmail, type ShopEmailProps } from "./frame";
export {
  type EmailOrderLine,
  type EmailOrderSummary,
  type EmailPhoto,
  LINE_PHOTO_SIZE,
  OrderSummary,
  orderSummaryText,
} from "./order-summary";
export { Cover, type EmailProduct, ProductGrid, productListText } from "./product-grid";
export { type RenderedEmail, renderEmail } from "./render";
export { EMAIL_COLORS, EMAIL_FONTS } from "./theme";
