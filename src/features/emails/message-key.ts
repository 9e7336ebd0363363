/** Where the built message of an email is kept in R2, as it was handed to the transport. */
export const messageKey = (emailId: string) => `emails/${emailId}/message.eml`;
