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
  sessionTimeout: 'Session timeout, please login again',
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
  loggedOut: 'You have been logged out',
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
  fileUploaded: 'File uploaded successfully',
  chooseFile: 'Please choose a file to upload',
  imageTypeRefused: 'The image must be a PNG, JPEG or WebP picture',
  documentTypeRefused: 'The document must be a PDF, a Word document (DOC or DOCX) or a PNG, JPEG or WebP picture',
  fileNotFound: 'This file does not exist',
  fileLinkExpired: 'This file link has expired. Please open the file again from the page.',
} as const;

export type MessageKey = keyof typeof messages;

/** "Please enter your {label}" — the generic sign-up rule of spec section 5. */
export const enterYour = (label: string) => `Please enter your ${label}`;
