fn main() {
    user_questions_desktop::run()
}
