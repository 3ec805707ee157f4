export const DELIVERY_NOTICE = 'Delivery is 7-10 working days after purchase';
/** The most working days a delivery takes (DELIVERY_NOTICE): the promise the landing and About pages make. */
export const DELIVERY_WORKING_DAYS = 10;
