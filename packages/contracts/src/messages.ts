import { SESSION_TIMEOUT_MESSAGE } from './session-message.js';

/**
 * Every text the spec gives, word for word. The API and the web app both read
 * them from here so a message can never drift between the two.
 */
export const messages = {
  // success
  welcomeBack: 'Welcome back',
  accountCreated: 'You have successfully created an account',
  newProductCreated: 'New Product Created',
  productUpdated: 'Product Updated',
  productDeleted: 'Product deleted successfully',
  passwordResetEmailSent: 'Password reset email sent',
  otpConfirmedReset: 'OTP Confirmed!',
  passwordResetSuccessfully: 'Password Reset Successfully',
  confirmationEmailSent: 'Confirmation email sent successfully',
  profileUpdated: 'Profile Updated Successfully',
  cartRetrieved: 'Cart retrieved successfully',
  productRemovedFromCart: 'Product removed from the cart',
  cartCleared: 'Cart cleared successfully',
  checkoutSuccessful: 'Checkout successful!',
  paymentSuccessful: 'Payment successful!',
  editedSuccessfully: 'Edited successfully',
  addedToCart: 'You have successfully added to cart',
  gottenAllReviews: 'You have successfully gotten all reviews',
  reviewSubmitted: 'Review Submitted Successfully',
  reviewUpdated: 'Review Updated Successfully',
  reviewDeleted: 'Review deleted successfully',
  verificationSuccessful: 'Verification Successful',
  jobCompleted: 'Job completed successfully',
  jobAssigned: 'Job assigned successfully',
  paymentDetailsAdded: 'You have successfully added payment details',
  paymentDetailsUpdated: 'You have successfully updated your payment details',
  otpSent: 'OTP sent successfully',
  otpConfirmed: 'OTP confirmed',
  requestSent: 'Request sent successfully',
  jobApplied: 'Job applied successfully',
  emailConfirmed: 'Email confirmed successfully',
  youCanNowLogIn: 'You can now log in',

  // failures and alerts
  enterEmail: 'Please enter your email address',
  enterPassword: 'Please enter your password',
  confirmPassword: 'Please confirm your password',
  passwordsDoNotMatch: 'Passwords do not match',
  passwordRuleSignup:
    'Password must have at least 8 characters with one uppercase, one lowercase, one number, and one special character',
  passwordRuleNew:
    'Password must contain at least 8 characters with at least one number, one lowercase letter, one uppercase letter, and one special character.',
  phoneRule: 'Please enter a valid 11-digit phone number',
  acceptTerms: 'Please accept the terms and conditions.',
  unconfirmedEmail: 'Please confirm your email address to log in.',
  loginProblem: 'There was a problem logging in',
  signupProblem: 'There was a problem signing up',
  unknownUserType: 'Unknown user type',
  sessionTimeout: SESSION_TIMEOUT_MESSAGE,
  noPermissionProfile: 'You do not have permission to view these profile details.',
  paymentFailed: 'Payment failed. Please try again.',
  checkoutFailed: 'Checkout failed. Please try again.',
  kindlyAddDetails: 'Kindly add/edit details',
  kindlyRequestDetails: 'Kindly request details',
  selectLawyer: 'Please select a lawyer to assign the job.',
  unverifiedCannotApply:
    'Unverified lawyers cannot apply for a job. Kindly contact the provider for further enquiry on verification process',
  paymentAdditionUnsuccessful: 'Payment addition is unsuccessful.',
  flutterwaveUnavailable: 'Unable to load flutterwave payment modal',

  // decided by us where the spec says "not shown" (see docs/decisions)
  invalidCredentials: 'Incorrect email or password',
  tooManyAttempts: 'Too many attempts. Please wait a little and try again.',
  linkInvalid: 'This link is invalid or has expired. Please request a new one.',
  codeInvalid: 'The code is incorrect or has expired. Please request a new one.',
  adminSignupClosed: 'Admin sign-up is closed on this marketplace. Ask an existing admin to create your account.',
  adminInviteInvalid: 'The invite code is not valid.',
  notSignedIn: 'Please log in to continue.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'Not found',
  bodyNotObject: 'Send the request body as a JSON object, with Content-Type: application/json',
  loggedOut: 'You have been logged out',
  otherSessionsEnded: 'Every other device is signed out',

  // lawyer workspace (issue 5; docs/decisions/0300-0399)
  jobNotOpen: 'This job is no longer open for applications.',
  notPartyToJob: 'Only the company, the lawyer assigned to this job and administrators can open it.',
  assignedLawyerUnverified:
    'Your verification has been withdrawn, so you cannot work on this job for now. Your earlier work stays with the job; an administrator will verify you again or pass the job to another lawyer.',
  messageMissing: 'Please enter a message',
  messageTooLong: 'Messages can be at most 5,000 characters',
  changesNoteMissing: 'Please say what should change',
  deliveryNeedsDocument: 'Please attach at least one document to deliver',
  documentAttachedTwice: 'Please attach each document once',
  actionKeyReused: 'This key was already used with a different note or documents. Please send a fresh key.',
  deliveryReplaced:
    'The lawyer has delivered again since this page was loaded. Please look at the newest delivery before accepting it or asking for changes.',
  deliveryNotNamed: 'Only an acceptance or a request for changes names a delivery',
  cancelKeyReused:
    'This key already cancelled the job with a different refund. Nothing more was refunded; please check the refund before sending a fresh key.',
  accountNumberRule: 'Please enter a 10-digit account number',
  bankRule: 'Please choose your bank from the list',
  paymentDetailsExist: 'You have already added payment details. Use the pencil to change them.',
  noPaymentDetails: 'You have not added payment details yet.',
  payoutCodeRequired: 'Please confirm the code we e-mailed you before changing your payment details.',
  // admin workspace (issue 6, docs/decisions/04xx)
  verificationRevoked: 'Verification revoked',
  verificationRejected: 'Verification rejected: the lawyer has been e-mailed the reason',
  rejectionReasonRequired: 'Please give the lawyer a reason (at least 10 characters)',
  rejectVerifiedLawyer: 'This lawyer is verified: withdraw the verification instead of rejecting it',
  settlementAccountSaved: 'Settlement account saved',
  jobNotFound: 'Job not found',
  lawyerNotFound: 'Lawyer not found',
  lawyerNotVerifiedForAssign: 'Only verified lawyers can be assigned a job. Verify the lawyer first.',
  jobAlreadyAssigned: 'This job is already assigned to a lawyer.',
  /** Assigning a cancelled job: it may never have had a lawyer, so it is not "already assigned" (decision 2337). */
  jobCancelledNoAssign: 'This job is cancelled: it cannot be assigned.',
  reassignDelivered:
    'This job has a delivery waiting for the company. It can be passed to another lawyer once the company asks for changes.',
  jobAlreadyCompleted: 'This job is already completed.',
  jobNotAssignedYet: 'This job has not been assigned to a lawyer yet.',
  jobClosedForDetails: 'Details cannot be added to a completed job.',
  // catalogue, uploads and reviews (docs/decisions/0100-0199)
  enterProductName: 'Please enter the product name',
  enterProductPrice: 'Please enter the product price',
  productPriceDigits: 'The product price must be a whole number of naira, digits only',
  enterProductDescription: 'Please enter the product description',
  chooseProductImage: 'Please choose a product image',
  productNotFound: 'This product does not exist or has been removed',
  enterReviewTitle: 'Please enter a review title',
  enterReviewText: 'Please enter your review',
  chooseStars: 'Please choose a star rating from 1 to 5',
  reviewNotFound: 'This review does not exist or has been removed',
  reviewNotYours: 'You can only change or delete your own reviews',
  // reviews of lawyers, one review per product (docs/decisions/2000-2009)
  lawyerReviewSubmitted: 'Review Submitted Successfully',
  lawyerReviewUpdated: 'Review Updated Successfully',
  lawyerReplySent: 'Your answer was posted',
  lawyerReviewNeedsCompletedJob: 'You can review the lawyer once the job is completed.',
  lawyerReviewOnce: 'You have already reviewed the lawyer for this job. Edit that review instead.',
  lawyerReviewNotYourJob: 'You can only review the lawyer of your own job.',
  lawyerReviewEditClosed: 'A review can be edited for 14 days after it was written; this one can no longer be changed.',
  lawyerReplyOnce: 'You have already answered this review.',
  lawyerReplyNotYours: 'You can only answer reviews of your own work.',
  enterReply: 'Please enter your answer',
  fileUploaded: 'File uploaded successfully',
  chooseFile: 'Please choose a file to upload',
  imageTypeRefused: 'The image must be a PNG, JPEG or WebP picture',
  documentTypeRefused: 'The document must be a PDF, a Word document (DOC or DOCX) or a PNG, JPEG or WebP picture',
  fileNotFound: 'This file does not exist',
  fileLinkExpired: 'This file link has expired. Please open the file again from the page.',
  // attaching a document to a cart line or a job (issue 14, docs/decisions/0860)
  fileNotYours: 'You can only attach a file you uploaded yourself. Please upload it again.',
  attachedFileNotFound: 'The attached file does not exist. Please upload it again.',
  attachDocumentOnly: 'This file was uploaded as a public picture. Please upload it again as a document to attach it.',
  // hostile uploads (issue 8, docs/decisions/0850)
  fileDamaged: 'The file is damaged or incomplete. Please save it again and upload the new copy.',
  fileHidesArchive: 'The file hides an archive inside it. Please save it again as a plain picture or document.',
  imageTooManyPixels: 'The picture is too large: at most 12000 pixels on a side and 40 megapixels',
  documentUnpacksTooLarge: 'The Word document unpacks to more than 100 MB. Please send a smaller document.',
  // cart, checkout, company workspace (issue 4, docs/decisions/0200-0299)
  cartEmpty: 'Your cart is empty',
  productUnavailable: 'This product is no longer available',
  // a product added twice, reservations moved at log-in (issue 18, docs/decisions/1800)
  reservationsMoved: 'Your reserved items are now in your cart',
  orderNotFound: 'We could not find this payment. Please try again.',
  orderNotYours: 'This payment belongs to another account.',
  paymentPending: 'Your payment is still being confirmed. Your jobs will appear on your dashboard once it is.',
  webhookRefused: 'Invalid signature',
  companyNotFound: 'Company not found',
  emailTaken: 'This email address is already used by another account',
  nothingToUpdate: 'Please change at least one field',
  profileImageRefused: 'The profile picture must be a PNG, JPEG or WebP image',
  jobClosedForEdits: 'A completed job cannot be edited',
  // Changing the sign-in e-mail (docs/decisions/0210)
  currentPasswordRequired: 'Please enter your current password to change your email address',
  currentPasswordWrong: 'Your current password is not correct',
  checkNewInbox: 'Check your new inbox to confirm your new email address',
  emailChangeConfirmed: 'Your email address was changed. Log in with the new address from now on.',
  emailChangeCancelled: 'The change of your email address was cancelled.',
  emailChangeReverted:
    'Your email address was restored and every device was logged out. Whoever changed it knew your password: reset it now.',
  emailChangeRevertBlocked:
    'Your old email address now belongs to another account, so it could not be restored. Please contact support.',
  // First use (issue 18)
  emailAlreadyConfirmed: 'Your email address is already confirmed. You can log in.',
  yearOfCallRule: 'Year of call must be a year such as 2015',
  scnChangeNeedsVerification:
    'Your new SCN needs verification again: your Verified badge goes until an admin has checked it, and you cannot apply for new jobs meanwhile.',
  verificationPending: 'Your verification is pending',
  verificationDeclined: 'Your verification was declined',
  verificationDeclinedNext: 'Update your profile and we will check again.',
  verificationNext:
    'An admin checks your Supreme Court Number (SCN) with the NBA, usually within about an hour. You will get an e-mail once you are verified; then you can see briefs and apply for jobs.',
} as const;

/** "Please enter your {label}" — the generic sign-up rule of spec section 5. */
export const enterYour = (label: string) => `Please enter your ${label}`;

/** Mark as Completed confirmed for a payee another admin handed the job to meanwhile (decision 2340). */
export const completePayeeChanged = (name: string, amount: string) =>
  `This job now pays ${name} ${amount}: another admin passed it to them after you opened it. Check the job and mark it completed again.`;

/** Mark as Completed confirmed for an amount a commission change altered meanwhile (decision 2340). */
export const completePayChanged = (name: string, amount: string, shown: string) =>
  `This job now pays ${name} ${amount}, not ${shown}: the commission changed after you opened it. Check the job and mark it completed again.`;
