/** Who a piece of work belongs to: a user's id (rows) and name (files and topics). */
export interface Owner {
  id: number;
  username: string;
}
