/** The header's redeem dropdown (spec section 2, Header); filled in by the catalogs work. */
export function RedeemMenu() {
  return null;
}
