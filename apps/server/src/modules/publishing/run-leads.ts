// How early a prepared run starts before its post's due time, and confirms (decision 039).

/**
 * A pending post's run starts this long before its due time (decision 039): the reservation, the claim, the daily cap, the storage check, the token and creator_info
 * are done by then, and only the slot's confirmation (CONFIRM_LEAD_MS before) and the video init
 * remain. Preparing thousands of posts due in the same second holds a small machine's cores for
 * seconds, so the lead leaves room for the whole burst to be prepared (a shorter one left some
 * runs unprepared, and their inits late). A post not prepared in time simply goes without waiting. Short against INIT_FLIGHT_MS (a reservation
 * made this early is still counted when it is confirmed) and against what a creator could notice:
 * the post stays pending, editable and cancellable until its confirmation, a second before.
 */
export const PREPARE_LEAD_MS = 20_000;

/**
 * A prepared run confirms its slot and marks its post this long before the due time, then waits
 * for the due instant by the database's clock and sends (decision 039): the statements of a burst's
 * confirmations take a noticeable time at a due instant, and every init would wait behind them. From the confirmation on, the post is 'publishing': an edit or a
 * cancel in this last second is answered as for a post being published, and a process that dies
 * in it leaves the init's outcome unknown (never sent twice), as one dying while its request is
 * out does.
 */
export const CONFIRM_LEAD_MS = 1_000;
