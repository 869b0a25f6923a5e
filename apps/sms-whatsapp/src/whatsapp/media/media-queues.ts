/** Work-queue job `{media_id}`: fetch an inbound message's media from Meta and store it. */
export const MEDIA_FETCH_QUEUE = 'whatsapp.media-fetch';
