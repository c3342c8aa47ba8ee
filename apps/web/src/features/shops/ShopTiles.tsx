/** Home's merchandise and experiences tiles (spec section 2); filled in by the catalogs work. */
export function ShopTiles() {
  return null;
}
