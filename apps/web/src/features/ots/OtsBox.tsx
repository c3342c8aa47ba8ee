/** Home's on-the-spot box (spec section 2); filled in by the on-the-spot work. */
export function OtsBox() {
  return null;
}
