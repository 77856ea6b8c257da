/// The keys an AWS Signature Version 4 is made with: an access key id, its secret, and the session token of
/// temporary credentials (sent as `X-Amz-Security-Token` and signed with the request).
package struct AWSCredentials: Sendable, Equatable {
    package var accessKeyID: String
    package var secretAccessKey: String
    package var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}
