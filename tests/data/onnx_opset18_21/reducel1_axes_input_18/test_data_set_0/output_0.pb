ByJ0`LBќ*.BЬзBO*	BіRBvУB8{B%+BIїтA®ц
BЬЭB®|ЧA