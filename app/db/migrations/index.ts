import type { Migration } from "kysely";
import * as m0001 from "./0001_catalogue";
import * as m0002 from "./0002_orders";
import * as m0003 from "./0003_emails";
import * as m0004 from "./0004_order_stock_issue";
import * as m0005 from "./0005_order_shipping";
import * as m0006 from "./0006_admin_accounts";
import * as m0007 from "./0007_orders_desk";
import * as m0008 from "./0008_media_alt";
import * as m0009 from "./0009_rate_limits";
import * as m0010 from "./0010_checkout_rules";
import * as m0011 from "./0011_waitlist";
import * as m0012 from "./0012_admin_two_factor";
import * as m0013 from "./0013_shop_settings";
import * as m0014 from "./0014_mail_log";
import * as m0015 from "./0015_fair_opening";
import * as m0016 from "./0016_per_person_limit";
import * as m0017 from "./0017_waitlist_caps";
import * as m0018 from "./0018_owner_door";
import * as m0019 from "./0019_metal_facts";
import * as m0020 from "./0020_editions";
import * as m0021 from "./0021_sizes";
import * as m0022 from "./0022_search_by_email";
import * as m0023 from "./0023_paid_orders_kept";
import * as m0025 from "./0025_drafts";
import * as m0026 from "./0026_installments";
import * as m0027 from "./0027_vouchers";
import * as m0028 from "./0028_shipping";
import * as m0029 from "./0029_order_site";
import * as m0030 from "./0030_delivered";
import * as m0031 from "./0031_invoice_requests";
import * as m0032 from "./0032_restock_requests";
import * as m0033 from "./0033_returns";
import * as m0034 from "./0034_card_funding";
import * as m0035 from "./0035_delivery_days";
import * as m0036 from "./0036_jpeg_copies";
import * as m0037 from "./0037_return_received";
import * as m0038 from "./0038_return_closed";
import * as m0039 from "./0039_missing_refunded";
import * as m0040 from "./0040_return_numbers";
import * as m0041 from "./0041_missing_refund";
import * as m0042 from "./0042_delivery_business_days";
import * as m0043 from "./0043_indexes_for_growth";
import * as m0044 from "./0044_voucher_cancellations";
import * as m0045 from "./0045_crowd_mail_indexes";
import * as m0046 from "./0046_line_indexes";
import * as m0047 from "./0047_order_link_version";
import * as m0048 from "./0048_failed_mail_index";

/**
 * Every migration, in order. Listed by hand (not read from the folder) so they travel inside
 * the server bundle. Never edit one that has shipped: add the next number.
 */
export const migrations: Record<string, Migration> = {
  "0001_catalogue": m0001,
  "0002_orders": m0002,
  "0003_emails": m0003,
  "0004_order_stock_issue": m0004,
  "0005_order_shipping": m0005,
  "0006_admin_accounts": m0006,
  "0007_orders_desk": m0007,
  "0008_media_alt": m0008,
  "0009_rate_limits": m0009,
  "0010_checkout_rules": m0010,
  "0011_waitlist": m0011,
  "0012_admin_two_factor": m0012,
  "0013_shop_settings": m0013,
  "0014_mail_log": m0014,
  "0015_fair_opening": m0015,
  "0016_per_person_limit": m0016,
  "0017_waitlist_caps": m0017,
  "0018_owner_door": m0018,
  "0019_metal_facts": m0019,
  "0020_editions": m0020,
  "0021_sizes": m0021,
  "0022_search_by_email": m0022,
  "0023_paid_orders_kept": m0023,
  "0025_drafts": m0025,
  "0026_installments": m0026,
  "0027_vouchers": m0027,
  "0028_shipping": m0028,
  "0029_order_site": m0029,
  "0030_delivered": m0030,
  "0031_invoice_requests": m0031,
  "0032_restock_requests": m0032,
  "0033_returns": m0033,
  "0034_card_funding": m0034,
  "0035_delivery_days": m0035,
  "0036_jpeg_copies": m0036,
  "0037_return_received": m0037,
  "0038_return_closed": m0038,
  "0039_missing_refunded": m0039,
  "0040_return_numbers": m0040,
  "0041_missing_refund": m0041,
  "0042_delivery_business_days": m0042,
  "0043_indexes_for_growth": m0043,
  "0044_voucher_cancellations": m0044,
  "0045_crowd_mail_indexes": m0045,
  "0046_line_indexes": m0046,
  "0047_order_link_version": m0047,
  "0048_failed_mail_index": m0048,
};
