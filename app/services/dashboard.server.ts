/**
 * The number of auctions the user is bidding on. 0 until the auction engine exists; the
 * auctions work gives this its body (SPEC §2 Dashboard: Active Bids).
 */
export async function activeBidCount(_userId: string): Promise<number> {
  return 0;
}
